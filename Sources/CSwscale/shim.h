// libswscale and libavutil (Debian's, the ones the ffmpeg program uses): a decoded frame's pixels,
// in whatever format ffmpeg decoded them to, turned into RGB exactly as `ffmpeg -pix_fmt rgb24` would.
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
