/* libffi for Swift. libffi's ffi_type_* descriptors are mutable C globals, which Swift 6's strict
   concurrency checking refuses to touch; these inline accessors hand out their addresses instead. */
#ifndef STANDFIT_CLIBFFI_SHIM_H
#define STANDFIT_CLIBFFI_SHIM_H

#include <ffi.h>

static inline ffi_type *standfit_ffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *standfit_ffi_type_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *standfit_ffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *standfit_ffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *standfit_ffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *standfit_ffi_type_pointer(void) { return &ffi_type_pointer; }

/* FFI_DEFAULT_ABI is an enum constant macro Swift cannot always import; this returns it. */
static inline ffi_abi standfit_ffi_default_abi(void) { return FFI_DEFAULT_ABI; }

#endif
