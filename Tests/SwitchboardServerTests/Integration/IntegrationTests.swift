import SwitchboardTestSupport
import Testing

/// The integration suites: a whole Switchboard over real loopback sockets, in process
/// (``InProcessServer``) or as a child process (``ServerProcess``).
///
/// One test at a time (`.serialized`), each off the cooperative pool (`.blockingIO`): on
/// a small shared machine, several servers and their clients at once would slow the other
/// suites' timing-sensitive tests (graceful shutdown, signals) past their deadlines.
@Suite("Integration", .serialized, .blockingIO)
enum IntegrationTests {}
