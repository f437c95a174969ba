// libjpeg(-turbo) needs <stdio.h> before <jpeglib.h>.
#include <stdio.h>
#include <jpeglib.h>
