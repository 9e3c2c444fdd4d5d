/*
 * standfit_speech.h — offline speech recognition for `say --audio` and `listen`, through
 * PocketSphinx (libpocketsphinx.so.3, Debian's pocketsphinx 0.8), opened with dlopen by those
 * commands alone: no other command loads it, and a system without it only lacks speech.
 *
 * A recogniser holds one decoder searching the host's grammar (JSGF, made from the plugins'
 * phrases): whatever it hears is read as the nearest of them.
 * Host-internal: plugins never see this header.
 */
#ifndef STANDFIT_SPEECH_H
#define STANDFIT_SPEECH_H

#include <stddef.h>
#include <stdint.h>

typedef struct standfit_recognizer standfit_recognizer;

/* Whether libpocketsphinx could be opened: 1, else 0 with the reason in `why`. */
int standfit_speech_available(char *why, size_t why_length);

/* A recogniser for the acoustic model directory `hmm` and pronunciation dictionary `dict`,
   searching `jsgf` (a grammar's text). NULL with the reason in `why` when it cannot be made. */
standfit_recognizer *standfit_speech_open(const char *hmm, const char *dict, const char *jsgf, char *why,
                                          size_t why_length);

/* Reads `count` samples (16 kHz, mono, signed 16-bit) with the grammar, or with `rival` (a
   grammar's text) when it is not NULL: its words in `heard` (empty when nothing fit), the path's
   score (log-likelihood in the decoder's units) in `score` and the number of 10 ms frames read
   in `frames`. 0, or -1 when decoding failed. */
int standfit_speech_recognize(standfit_recognizer *recognizer, const char *rival, const int16_t *samples, size_t count,
                              char *heard, size_t heard_length, int32_t *score, int32_t *frames);

void standfit_speech_close(standfit_recognizer *recognizer);

#endif
