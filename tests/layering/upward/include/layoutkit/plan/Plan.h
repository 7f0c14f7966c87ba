// A fixture of the layering check (see ../core/Upward.h).
#include "layoutkit/core/Upward.h"
