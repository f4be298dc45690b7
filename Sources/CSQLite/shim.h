#include <sqlite3.h>

/// Turns SQLite's memory statistics off (a global mutex taken around every allocation it makes);
/// only before SQLite is initialized, else SQLITE_MISUSE. sqlite3_config is variadic, which Swift
/// cannot call.
static inline int tradeport_sqlite3_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
