// stb_image from Debian's libstb-dev (the decoder MediaPipe's file loader is built on): its header,
// compiled in CImageCodecs/jpeg_decode.c; the tests compare that build with Debian's libstb.
#include <stb_image.h>
