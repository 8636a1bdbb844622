/* The CJK mapping tables, generated at build time from the host Python's
   codecs by Tools/scripts/gen_cjk_tables.py (build/gen/cjk_tables.h); this
   file only gives them a home in the build. */

#include "cjkcodecs.h"
#include "cjk_tables_decl.h"
#include "cjk_tables.h"
