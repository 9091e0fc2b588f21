#ifndef SWITCHBOARD_CPCRE2_SHIM_H
#define SWITCHBOARD_CPCRE2_SHIM_H

// PCRE2's public API names are macros (`pcre2_compile` expands to `pcre2_compile_8`), which
// Swift cannot import. These `static inline`, `sb_`-prefixed wrappers pin the 8-bit library
// and give Swift one stable set of names. Only what SwitchboardCore uses is wrapped.

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/// `PCRE2_UNSET`, the ovector value of a group that did not participate (a cast macro).
static inline size_t sb_pcre2_unset(void) { return PCRE2_UNSET; }

static inline pcre2_code_8 *sb_pcre2_compile(const uint8_t *pattern, size_t length,
                                             uint32_t options, int *errorcode,
                                             size_t *erroroffset) {
    return pcre2_compile_8(pattern, length, options, errorcode, erroroffset, NULL);
}

static inline int sb_pcre2_jit_compile(pcre2_code_8 *code, uint32_t options) {
    return pcre2_jit_compile_8(code, options);
}

static inline void sb_pcre2_code_free(pcre2_code_8 *code) { pcre2_code_free_8(code); }

static inline int sb_pcre2_capture_count(const pcre2_code_8 *code, uint32_t *count) {
    return pcre2_pattern_info_8(code, PCRE2_INFO_CAPTURECOUNT, count);
}

static inline int sb_pcre2_get_error_message(int errorcode, uint8_t *buffer, size_t length) {
    return pcre2_get_error_message_8(errorcode, buffer, length);
}

static inline pcre2_match_context_8 *sb_pcre2_match_context_create(uint32_t match_limit,
                                                                   uint32_t depth_limit) {
    pcre2_match_context_8 *context = pcre2_match_context_create_8(NULL);
    if (context != NULL) {
        pcre2_set_match_limit_8(context, match_limit);
        pcre2_set_depth_limit_8(context, depth_limit);
    }
    return context;
}

static inline void sb_pcre2_match_context_free(pcre2_match_context_8 *context) {
    pcre2_match_context_free_8(context);
}

static inline pcre2_match_data_8 *sb_pcre2_match_data_create(uint32_t pairs) {
    return pcre2_match_data_create_8(pairs, NULL);
}

static inline void sb_pcre2_match_data_free(pcre2_match_data_8 *data) {
    pcre2_match_data_free_8(data);
}

static inline int sb_pcre2_match(const pcre2_code_8 *code, const uint8_t *subject, size_t length,
                                 uint32_t options, pcre2_match_data_8 *data,
                                 pcre2_match_context_8 *context) {
    return pcre2_match_8(code, subject, length, 0, options, data, context);
}

static inline const size_t *sb_pcre2_ovector(pcre2_match_data_8 *data) {
    return pcre2_get_ovector_pointer_8(data);
}

#endif
