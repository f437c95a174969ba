#ifndef CODEC_MESSAGE_H
#define CODEC_MESSAGE_H

#include <stdarg.h>
#include <stdio.h>

#include "image_codecs.h"

/// Writes a printf-style description of a failure into `message` (IC_MESSAGE_SIZE bytes) and
/// returns 1, the codecs' failure status: `return ic_fail(message, "...", ...);`.
__attribute__((format(printf, 2, 3))) static inline int ic_fail(char *message, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, IC_MESSAGE_SIZE, format, arguments);
    va_end(arguments);
    return 1;
}

#endif
