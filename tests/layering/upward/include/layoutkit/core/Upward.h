// A fixture of the layering check: core including plan must be refused.
#include "layoutkit/plan/Plan.h"
