#ifndef SWITCHBOARD_CQRENCODE_SHIM_H
#define SWITCHBOARD_CQRENCODE_SHIM_H

// libqrencode makes the QR symbol of GET /qr; zlib compresses the PNG it is drawn into.
// These `sb_`-prefixed wrappers pin the calls SwitchboardServer makes and give Swift plain
// integer types for the enums.

#include <qrencode.h>
#include <zlib.h>

/// The symbol for `text` in 8-bit mode, the smallest version that holds it at `level`
/// (0 L, 1 M, 2 Q, 3 H); NULL when it does not fit (errno ERANGE) or memory runs out.
static inline QRcode *sb_qrcode_encode(const char *text, int level) {
    return QRcode_encodeString8bit(text, 0, (QRecLevel)level);
}

static inline void sb_qrcode_free(QRcode *code) { QRcode_free(code); }

/// zlib's `compressBound`.
static inline unsigned long sb_zlib_bound(unsigned long length) { return compressBound(length); }

/// zlib's `compress2` at the best compression; Z_OK (0) on success, `*written` set.
static inline int sb_zlib_compress(unsigned char *destination, unsigned long *written,
                                   const unsigned char *source, unsigned long length) {
    return compress2(destination, written, source, length, Z_BEST_COMPRESSION);
}

/// zlib's `crc32` over `length` bytes, continuing `crc`.
static inline unsigned long sb_zlib_crc32(unsigned long crc, const unsigned char *bytes, unsigned int length) {
    return crc32(crc, bytes, length);
}

#endif
