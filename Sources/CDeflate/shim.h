// libdeflate: whole-buffer inflating (with Adler-32) and CRC-32 for the PNG decoder's common path.
#include <libdeflate.h>
