#ifndef SWITCHBOARD_CMICROHTTPD_SHIM_H
#define SWITCHBOARD_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
