/* wrappers.c - instrumentation starts three wrappers deep (TEPHRA_GRIND_START), then
 * each wrapper works after its callee returned.  Expected:
 *   main;w1;w2;w3;work 2002   main;w1;w2;work 4002   main;w1;work 6002   main;work 8002 */
#include <tephra/grind.h>
#include "work.h"

void w3(void) { TEPHRA_GRIND_START(); work(1000); }
void w2(void) { w3(); work(2000); }
void w1(void) { w2(); work(3000); }
int main(void) { w1(); work(4000); return 0; }
