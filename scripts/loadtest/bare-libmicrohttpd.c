/*
 * The floor of the load tests: libmicrohttpd with the settings `switchboard serve` uses
 * (poll in a pool of worker threads, 24 KiB of memory per connection, a connection limit and
 * a timeout), answering every request with one fixed JSON body and no work of its own. What
 * this process costs per request is what libmicrohttpd 0.9.75 and the kernel cost here;
 * anything Switchboard costs above it is its own.
 *
 *   cc -O2 -o bare-libmicrohttpd bare-libmicrohttpd.c $(pkg-config --cflags --libs libmicrohttpd)
 *   ./bare-libmicrohttpd PORT WORKERS BODY_SIZE   # on 127.0.0.1:PORT until SIGTERM or SIGINT
 *
 * Prints "port N" once it listens (PORT 0 picks a free port).
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct Answer {
  char *body;
  size_t size;
};

/* Queues the answer on the second call, as the server does: queuing on the first call makes
 * libmicrohttpd close a keep-alive connection. */
static enum MHD_Result answer(void *context, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
  static int started;
  (void)url; (void)method; (void)version; (void)upload_data;
  if (*request_state == NULL) {
    *request_state = &started;
    return MHD_YES;
  }
  if (*upload_data_size != 0) {
    *upload_data_size = 0;
    return MHD_YES;
  }
  const struct Answer *fixed = context;
  struct MHD_Response *response =
      MHD_create_response_from_buffer(fixed->size, fixed->body, MHD_RESPMEM_PERSISTENT);
  if (response == NULL) return MHD_NO;
  MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
  enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
  MHD_destroy_response(response);
  return queued;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PORT WORKERS BODY_SIZE\n", argv[0]);
    return 2;
  }
  int port = atoi(argv[1]), workers = atoi(argv[2]);
  long size = atol(argv[3]);
  if (port < 0 || port > 65535 || workers <= 0 || size < 32) {
    fprintf(stderr, "bad PORT, WORKERS or BODY_SIZE\n");
    return 2;
  }
  /* The same body shape as the nginx baseline: {"matched":true,"pad":"xxx…"}. */
  struct Answer fixed = {.body = malloc((size_t)size + 1), .size = (size_t)size};
  int prefix = snprintf(fixed.body, (size_t)size + 1, "{\"matched\":true,\"pad\":\"");
  memset(fixed.body + prefix, 'x', (size_t)size - (size_t)prefix - 2);
  memcpy(fixed.body + size - 2, "\"}", 2);

  struct sockaddr_in loopback = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  loopback.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);

  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG,
      (uint16_t)port, NULL, NULL, answer, &fixed,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&loopback,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)workers,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(24 * 1024),
      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)2048,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)2048,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
      MHD_OPTION_END);
  if (daemon == NULL) {
    fprintf(stderr, "libmicrohttpd did not start on port %d\n", port);
    return 1;
  }
  const union MHD_DaemonInfo *bound = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf("port %u\n", bound != NULL ? (unsigned int)bound->port : (unsigned int)port);
  fflush(stdout);
  int signal_number;
  sigwait(&stop, &signal_number);
  MHD_stop_daemon(daemon);
  free(fixed.body);
  return 0;
}
