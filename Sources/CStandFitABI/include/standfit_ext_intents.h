/*
 * standfit_ext_intents.h — the "standfit.intents/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_INTENTS_H
#define STANDFIT_EXT_INTENTS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.intents/1": what turns an action into an intent a person can talk to — entities
   whose values a plugin looks up, matches and suggests; fixed choices; the question asked when a
   value is missing; and phrases that invoke the action ("log {count} {exercise}").
   Every function here is [main-thread], inside init, and refers to actions and entities this
   plugin registered earlier in the same init. Plugins built before this extension never ask for
   it and keep working: their parameters are plain values. */
#define STANDFIT_EXT_INTENTS "standfit.intents/1"

/* One value of an entity or of a fixed choice list. The host copies every field during the call
   it is passed to. */
typedef struct standfit_entity_value {
    standfit_abi_header abi;
    const char *id;            /* what the handler receives as the parameter's string; non-empty */
    const char *title;         /* what people read and say ("Push-ups"); non-empty */
    const char *synonyms;      /* other names separated by '|' ("push ups|pushups"), or NULL */
    const char *defaults_json; /* a JSON object of defaults for the action's other parameters when
                                  this value is chosen ({"count": 10}), or NULL */
} standfit_entity_value;

typedef struct standfit_entity_sink standfit_entity_sink;

/* Where an entity query puts its values. Valid only during the query call. */
struct standfit_entity_sink {
    standfit_abi_header abi;
    const char *locale; /* preferred language for titles; never NULL */
    void *host_data;    /* opaque to the plugin */
    void *entity_data;  /* the entity's plugin_data, as registered, so one query function can
                           serve several entities */

    /* add: appends one value, best first. Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT
       for a missing id or title or defaults that are not a JSON object (the host logs which).
       Memory: copied before returning. Thread: [main-thread], only during the query. */
    int32_t (*add)(const standfit_entity_sink *sink, const standfit_entity_value *value);
};

/* A kind of thing a parameter can name, whose values the plugin knows at run time
   (exercises, playlists, contacts). Each query returns STANDFIT_OK, or any other value to report
   failure; the host keeps no values from a failed call. Thread: [main-thread]. */
typedef struct standfit_entity {
    standfit_abi_header abi;
    const char *id;    /* reverse-DNS entity id, unique in the plugin ("com.standfit.exercise") */
    const char *title; /* what one value is called ("Exercise"); host copies it */
    void *plugin_data; /* handed back as sink->entity_data in every query; opaque to the host */

    /* lookup: adds the one value whose id is `id`, or nothing when there is none. */
    int32_t (*lookup)(const standfit_entity_sink *sink, const char *id);
    /* match: adds the values whose title or synonyms match `text`, best first. Match as people
       type: ignore case, spaces and punctuation ("Push-ups" = "push ups" = "pushups"). */
    int32_t (*match)(const standfit_entity_sink *sink, const char *text);
    /* suggest: adds the values to offer when the host asks which one, most likely first
       (recently used ones, then the rest). */
    int32_t (*suggest)(const standfit_entity_sink *sink);
} standfit_entity;

typedef struct standfit_intents_ext {
    standfit_abi_header abi;

    /* register_entity: declares an entity. Returns STANDFIT_OK; STANDFIT_ERR_DUPLICATE when this
       plugin registered the id already; STANDFIT_ERR_INVALID_ARGUMENT for a malformed table (a
       NULL query among the three). Memory: the table is copied; the functions must stay valid
       for the life of the process. */
    int32_t (*register_entity)(const standfit_host *host, const standfit_entity *entity);

    /* set_parameter_entity: the values of string parameter `param` of action `type` are the
       values of entity `entity_id`: the host resolves what people type or say through the
       entity's queries and hands the handler the value's id. Returns STANDFIT_OK or
       STANDFIT_ERR_INVALID_ARGUMENT (unknown action, parameter or entity, or a parameter that is
       not STANDFIT_KIND_STRING). Memory: strings are copied. */
    int32_t (*set_parameter_entity)(const standfit_host *host, const char *type, const char *param,
                                    const char *entity_id);

    /* set_parameter_choices: the values of string parameter `param` of action `type` are the
       `count` values of `values` (an enumeration; no query runs, the host matches names and
       synonyms itself). Returns STANDFIT_OK or STANDFIT_ERR_INVALID_ARGUMENT.
       Memory: the array and its strings are copied; the array's stride is its element's
       abi.struct_size. */
    int32_t (*set_parameter_choices)(const standfit_host *host, const char *type, const char *param,
                                     const standfit_entity_value *values, uint32_t count);

    /* set_parameter_prompt: the question asked on a terminal when parameter `param` of `type`
       has no value ("Which exercise?", "How many?"). A required parameter is always asked for;
       an optional one with a prompt is asked too once the host is asking anyway (Enter keeps
       its default). Returns STANDFIT_OK or STANDFIT_ERR_INVALID_ARGUMENT. Memory: copied. */
    int32_t (*set_parameter_prompt)(const standfit_host *host, const char *type, const char *param,
                                     const char *prompt);

    /* register_phrase: a sentence that invokes `type`, with `{param}` placeholders
       ("log {count} {exercise}", "log my {exercise}", "log exercise"), for `language` ("en",
       "nl"; NULL for every language). Each placeholder names a parameter of the action, and the
       phrase needs at least one word besides placeholders. Returns STANDFIT_OK or
       STANDFIT_ERR_INVALID_ARGUMENT. Memory: copied. */
    int32_t (*register_phrase)(const standfit_host *host, const char *type, const char *language,
                               const char *phrase);
} standfit_intents_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_INTENTS_H */
