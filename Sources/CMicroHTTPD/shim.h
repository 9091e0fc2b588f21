#ifndef SWITCHBOARD_CMICROHTTPD_SHIM_H
#define SWITCHBOARD_CMICROHTTPD_SHIM_H
/*
 * The C boundary of SwitchboardServer (STYLE #5).
 *
 * Swift cannot call C variadic functions, and libmicrohttpd 0.9.75 returns
 * `enum MHD_Result` from most calls. Everything Swift needs that is variadic
 * or awkward gets a `static inline`, `sb_mhd_`-prefixed, fixed-arity wrapper
 * here; results are normalised to `int` (1 = yes/success, 0 = no/failure).
 * No logic lives here beyond forwarding and casts.
 *
 * GnuTLS is libmicrohttpd's TLS library: its headers come in here too, for the
 * certificate callback that hands each handshake the current certificate.
 */
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>

/* ---- Starting a daemon ------------------------------------------------- */

/*
 * Starts a daemon. `address` (may be NULL: all interfaces) is passed as
 * MHD_OPTION_SOCK_ADDR; `options` is an MHD_OPTION_ARRAY terminated by
 * `sb_mhd_option_end()`, whose first item should be the logger. Returns NULL on failure (the reason goes to the
 * external logger if one is among `options`).
 */
static inline struct MHD_Daemon *
sb_mhd_start_daemon(unsigned int flags,
                    uint16_t port,
                    const struct sockaddr *address,
                    MHD_AccessHandlerCallback handler,
                    void *handler_context,
                    const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port,
                            NULL, NULL,
                            handler, handler_context,
                            /* The array first: MHD wants MHD_OPTION_EXTERNAL_LOGGER to be
                               the very first option, and the array itself is not counted. */
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_END);
}

/*
 * Starts a TLS daemon (`flags` must hold MHD_USE_TLS): as `sb_mhd_start_daemon`, and
 * GnuTLS asks `certificate` for the certificate of every handshake
 * (MHD_OPTION_HTTPS_CERT_CALLBACK), so that a replaced one is served to new connections.
 * The option is passed here rather than in the array, whose handling of it differs
 * between libmicrohttpd versions.
 */
static inline struct MHD_Daemon *
sb_mhd_start_tls_daemon(unsigned int flags,
                        uint16_t port,
                        const struct sockaddr *address,
                        MHD_AccessHandlerCallback handler,
                        void *handler_context,
                        const struct MHD_OptionItem *options,
                        gnutls_certificate_retrieve_function2 *certificate)
{
    return MHD_start_daemon(flags, port,
                            NULL, NULL,
                            handler, handler_context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_HTTPS_CERT_CALLBACK, certificate,
                            MHD_OPTION_END);
}

/* ---- Building the MHD_OPTION_ARRAY -------------------------------------- */
/* The casts of MHD's "two pointer" options (callback + closure) live here so  */
/* that Swift never bit-casts a function pointer.                              */

/** An option taking an `unsigned int` (limits, timeouts, pool size). */
static inline struct MHD_OptionItem
sb_mhd_option_unsigned(enum MHD_OPTION option, unsigned int value)
{
    struct MHD_OptionItem item = { option, (intptr_t) value, NULL };
    return item;
}

/** An option taking a `size_t` (memory limit, stack size). */
static inline struct MHD_OptionItem
sb_mhd_option_size(enum MHD_OPTION option, size_t value)
{
    struct MHD_OptionItem item = { option, (intptr_t) value, NULL };
    return item;
}

/** MHD_OPTION_URI_LOG_CALLBACK: sees the raw request target before MHD parses it. */
typedef void *(*sb_mhd_uri_log_callback)(void *context,
                                         const char *uri,
                                         struct MHD_Connection *connection);

static inline struct MHD_OptionItem
sb_mhd_option_uri_log(sb_mhd_uri_log_callback callback, void *context)
{
    struct MHD_OptionItem item = {
        MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) callback, context
    };
    return item;
}

/** MHD_OPTION_NOTIFY_COMPLETED: called once per request MHD told us about. */
static inline struct MHD_OptionItem
sb_mhd_option_notify_completed(MHD_RequestCompletedCallback callback,
                               void *context)
{
    struct MHD_OptionItem item = {
        MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) callback, context
    };
    return item;
}

/**
 * MHD_OPTION_NOTIFY_CONNECTION: called when a connection opens and when it
 * closes (before its socket is closed).
 */
static inline struct MHD_OptionItem
sb_mhd_option_notify_connection(MHD_NotifyConnectionCallback callback,
                                void *context)
{
    struct MHD_OptionItem item = {
        MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) callback, context
    };
    return item;
}

/**
 * MHD_OPTION_UNESCAPE_CALLBACK: how MHD decodes the target's path and query
 * arguments in place; returns the decoded length.
 */
typedef size_t (*sb_mhd_unescape_callback)(void *context,
                                           struct MHD_Connection *connection,
                                           char *text);

static inline struct MHD_OptionItem
sb_mhd_option_unescape(sb_mhd_unescape_callback callback, void *context)
{
    struct MHD_OptionItem item = {
        MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) callback, context
    };
    return item;
}

/** MHD_OPTION_EXTERNAL_LOGGER: MHD's own diagnostics (needs MHD_USE_ERROR_LOG). */
static inline struct MHD_OptionItem
sb_mhd_option_logger(MHD_LogCallback callback, void *context)
{
    struct MHD_OptionItem item = {
        MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) callback, context
    };
    return item;
}

/** The terminating entry of an option array. */
static inline struct MHD_OptionItem
sb_mhd_option_end(void)
{
    struct MHD_OptionItem item = { MHD_OPTION_END, 0, NULL };
    return item;
}

/* ---- Daemon and connection information (variadic in MHD) --------------- */

/** The port the daemon listens on (useful after binding port 0); 0 if unknown. */
static inline uint16_t
sb_mhd_daemon_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return (NULL == info) ? 0 : info->port;
}

/** How many connections the daemon (all pool workers) holds now; 0 if unknown. */
static inline unsigned int
sb_mhd_daemon_connection_count(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return (NULL == info) ? 0 : info->num_connections;
}

/** The peer address of a connection, or NULL. */
static inline const struct sockaddr *
sb_mhd_connection_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return (NULL == info) ? NULL : info->client_addr;
}

/** The socket of a connection, or -1. */
static inline int
sb_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return (NULL == info) ? -1 : (int) info->connect_fd;
}

/** The `socket_context` set by the connection-notify callback, or NULL. */
static inline void *
sb_mhd_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return (NULL == info) ? NULL : info->socket_context;
}

/** The libmicrohttpd connection a GnuTLS session belongs to (MHD sets it as the session's pointer). */
static inline struct MHD_Connection *
sb_mhd_connection_of_tls_session(gnutls_session_t session)
{
    return (struct MHD_Connection *) gnutls_session_get_ptr(session);
}

/* ---- Responses ------------------------------------------------------------ */

/** Queues `response` with `status`; 1 on success, 0 if MHD refused it. */
static inline int
sb_mhd_queue_response(struct MHD_Connection *connection,
                      unsigned int status,
                      struct MHD_Response *response)
{
    return MHD_YES == MHD_queue_response(connection, status, response);
}

/** Adds a header to `response`; 1 on success, 0 if MHD refused it. */
static inline int
sb_mhd_add_response_header(struct MHD_Response *response,
                           const char *name,
                           const char *value)
{
    return MHD_YES == MHD_add_response_header(response, name, value);
}

#endif
