// stb_image from Debian's libstb (the decoder MediaPipe's file loader is built on).
#include <stb_image.h>
