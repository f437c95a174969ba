// zlib: inflating .task bundle entries and checking their CRC-32.
#include <zlib.h>
