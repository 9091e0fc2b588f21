#ifndef SWITCHBOARD_CLIBPQ_SHIM_H
#define SWITCHBOARD_CLIBPQ_SHIM_H

// libpq, PostgreSQL's C client (Debian: libpq-dev). Only Store/PostgresConnection.swift uses it.
#include <libpq-fe.h>

#endif
