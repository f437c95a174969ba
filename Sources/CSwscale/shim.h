// libswscale and libavutil (Debian's, the ones the ffmpeg program uses): a decoded frame's pixels,
// in whatever format ffmpeg decoded them to, turned into RGB exactly as `ffmpeg -pix_fmt rgb24` would.
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>

// libswscale's context through `void *`: FFmpeg 8 (Debian sid's libswscale 9 and later) declares
// SwsContext as a public struct, which Swift imports as UnsafeMutablePointer<SwsContext> where earlier
// versions' opaque struct gives OpaquePointer; through these wrappers VideoIO compiles against both.

/// SWS_BICUBIC as an int (a macro before FFmpeg 8, a value of enum SwsFlags since).
static const int vt_sws_bicubic = SWS_BICUBIC;
/// sws_getContext without filters.
static inline void *vt_sws_get_context(int width, int height, enum AVPixelFormat source, int target_width,
                                       int target_height, enum AVPixelFormat target, int flags) {
    return sws_getContext(width, height, source, target_width, target_height, target, flags, NULL, NULL, NULL);
}
/// sws_freeContext (NULL does nothing).
static inline void vt_sws_free_context(void *context) { sws_freeContext((struct SwsContext *)context); }
/// sws_scale.
static inline int vt_sws_scale(void *context, const uint8_t *const source[], const int source_strides[], int first_row,
                               int rows, uint8_t *const target[], const int target_strides[]) {
    return sws_scale((struct SwsContext *)context, source, source_strides, first_row, rows, target, target_strides);
}
/// sws_getColorspaceDetails.
static inline int vt_sws_get_colorspace_details(void *context, int **inverse, int *source_range, int **table,
                                                int *target_range, int *brightness, int *contrast, int *saturation) {
    return sws_getColorspaceDetails((struct SwsContext *)context, inverse, source_range, table, target_range,
                                    brightness, contrast, saturation);
}
/// sws_setColorspaceDetails.
static inline int vt_sws_set_colorspace_details(void *context, const int inverse[4], int source_range,
                                                const int table[4], int target_range, int brightness, int contrast,
                                                int saturation) {
    return sws_setColorspaceDetails((struct SwsContext *)context, inverse, source_range, table, target_range,
                                    brightness, contrast, saturation);
}
