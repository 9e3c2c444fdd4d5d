#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "standfit_speech.h"

/* Rationale: the few PocketSphinx 0.8 functions used, declared here with opaque types instead
   of including <pocketsphinx.h>, so that building the host needs no pocketsphinx headers; the
   library is opened at run time (libpocketsphinx.so.3, whose ABI these are). */
typedef struct ps_decoder_s ps_decoder_t;
typedef struct cmd_ln_s cmd_ln_t;
typedef struct arg_s arg_t;

static const arg_t *(*p_ps_args)(void);
static cmd_ln_t *(*p_cmd_ln_init)(cmd_ln_t *, const arg_t *, int32_t, ...);
static int (*p_cmd_ln_free_r)(cmd_ln_t *);
static ps_decoder_t *(*p_ps_init)(cmd_ln_t *);
static int (*p_ps_free)(ps_decoder_t *);
static int (*p_ps_set_jsgf_string)(ps_decoder_t *, const char *, const char *);
static int (*p_ps_set_search)(ps_decoder_t *, const char *);
static int (*p_ps_start_utt)(ps_decoder_t *);
static int (*p_ps_process_raw)(ps_decoder_t *, const int16_t *, size_t, int, int);
static int (*p_ps_end_utt)(ps_decoder_t *);
static const char *(*p_ps_get_hyp)(ps_decoder_t *, int32_t *);
static int (*p_ps_get_n_frames)(ps_decoder_t *);

static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static int load_succeeded = 0;
static char load_error[256] = "not loaded";

static void load(void) {
    void *library = dlopen("libpocketsphinx.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define RESOLVE(name) \
    *(void **)(&p_##name) = dlsym(library, #name); \
    if (p_##name == NULL) { snprintf(load_error, sizeof load_error, "libpocketsphinx.so.3 has no %s", #name); return; }
    RESOLVE(ps_args) RESOLVE(cmd_ln_init) RESOLVE(cmd_ln_free_r) RESOLVE(ps_init) RESOLVE(ps_free)
    RESOLVE(ps_set_jsgf_string) RESOLVE(ps_set_search) RESOLVE(ps_start_utt)
    RESOLVE(ps_process_raw) RESOLVE(ps_end_utt) RESOLVE(ps_get_hyp) RESOLVE(ps_get_n_frames)
#undef RESOLVE
    load_succeeded = 1;
}

static int loaded(char *why, size_t why_length) {
    pthread_once(&loaded_once, load);
    if (!load_succeeded) {
        if (why != NULL && why_length > 0) snprintf(why, why_length, "%s", load_error);
        return 0;
    }
    return 1;
}

int standfit_speech_available(char *why, size_t why_length) {
    return loaded(why, why_length);
}

struct standfit_recognizer {
    cmd_ln_t *config;
    ps_decoder_t *decoder;
};

/* PocketSphinx keeps one log file for the process (-logfn): each ps_init closes the one before
   and opens its own, and every decoder writes to it. Two requests of the warm server that open a
   recognizer at once closed the same FILE twice, and the next fopen found glibc's list of open
   files locked for ever (two `say --audio` hung). Opening and closing a recognizer hold this lock
   alone; recognising holds it shared with other recognitions, so decoders still run side by
   side. Rationale: PocketSphinx has no lock of its own for its global log. */
static pthread_rwlock_t speech_lock = PTHREAD_RWLOCK_INITIALIZER;

static standfit_recognizer *open_locked(const char *hmm, const char *dict, const char *jsgf, char *why, size_t why_length);

standfit_recognizer *standfit_speech_open(const char *hmm, const char *dict, const char *jsgf, char *why,
                                          size_t why_length) {
    if (!loaded(why, why_length)) return NULL;
    pthread_rwlock_wrlock(&speech_lock);
    standfit_recognizer *recognizer = open_locked(hmm, dict, jsgf, why, why_length);
    pthread_rwlock_unlock(&speech_lock);
    return recognizer;
}

static standfit_recognizer *open_locked(const char *hmm, const char *dict, const char *jsgf, char *why, size_t why_length) {
    /* Its log goes nowhere: the host says what matters in its own words. No dither of its own:
       the host adds the same noise to every reading of a recording (Recognizer.dithered). */
    cmd_ln_t *config = p_cmd_ln_init(NULL, p_ps_args(), 1, "-hmm", hmm, "-dict", dict, "-logfn", "/dev/null",
                                      "-dither", "no", NULL);
    if (config == NULL) {
        snprintf(why, why_length, "the model in %s or the dictionary %s could not be read", hmm, dict);
        return NULL;
    }
    ps_decoder_t *decoder = p_ps_init(config);
    if (decoder == NULL) {
        p_cmd_ln_free_r(config);
        snprintf(why, why_length, "the model in %s or the dictionary %s could not be loaded", hmm, dict);
        return NULL;
    }
    if (p_ps_set_jsgf_string(decoder, "grammar", jsgf) < 0) {
        p_ps_free(decoder);
        p_cmd_ln_free_r(config);
        snprintf(why, why_length, "the grammar was refused");
        return NULL;
    }
    standfit_recognizer *recognizer = calloc(1, sizeof *recognizer);
    if (recognizer == NULL) {
        p_ps_free(decoder);
        p_cmd_ln_free_r(config);
        snprintf(why, why_length, "out of memory");
        return NULL;
    }
    recognizer->config = config;
    recognizer->decoder = decoder;
    return recognizer;
}

static int recognize_locked(standfit_recognizer *recognizer, const char *rival, const int16_t *samples, size_t count,
                            char *heard, size_t heard_length, int32_t *score, int32_t *frames);

int standfit_speech_recognize(standfit_recognizer *recognizer, const char *rival, const int16_t *samples, size_t count,
                              char *heard, size_t heard_length, int32_t *score, int32_t *frames) {
    pthread_rwlock_rdlock(&speech_lock);
    int result = recognize_locked(recognizer, rival, samples, count, heard, heard_length, score, frames);
    pthread_rwlock_unlock(&speech_lock);
    return result;
}

static int recognize_locked(standfit_recognizer *recognizer, const char *rival, const int16_t *samples, size_t count,
                            char *heard, size_t heard_length, int32_t *score, int32_t *frames) {
    ps_decoder_t *decoder = recognizer->decoder;
    if (heard_length > 0) heard[0] = '\0';
    *score = 0;
    *frames = 0;
    /* A rival grammar replaces the previous one under its own search name. */
    const char *search = rival != NULL ? "rival" : "grammar";
    if (rival != NULL && p_ps_set_jsgf_string(decoder, search, rival) < 0) return -1;
    if (p_ps_set_search(decoder, search) < 0 || p_ps_start_utt(decoder) < 0) return -1;
    if (p_ps_process_raw(decoder, samples, count, 0, 1) < 0) {
        p_ps_end_utt(decoder);
        return -1;
    }
    if (p_ps_end_utt(decoder) < 0) return -1;
    const char *hypothesis = p_ps_get_hyp(decoder, score);
    *frames = p_ps_get_n_frames(decoder);
    if (heard_length > 0) snprintf(heard, heard_length, "%s", hypothesis != NULL ? hypothesis : "");
    return 0;
}

void standfit_speech_close(standfit_recognizer *recognizer) {
    if (recognizer == NULL) return;
    pthread_rwlock_wrlock(&speech_lock);
    p_ps_free(recognizer->decoder);
    p_cmd_ln_free_r(recognizer->config);
    pthread_rwlock_unlock(&speech_lock);
    free(recognizer);
}
