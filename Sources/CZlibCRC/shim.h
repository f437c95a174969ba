// zlib, for its fast CRC-32 (checking .task bundle entries).
#include <zlib.h>
