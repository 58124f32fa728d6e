/* calls.c - plain calls: expected
 *   main;a;work 2002   main;b;work 4002   main;b;a;work 2002 */
#include "work.h"

void a(void) { work(1000); }
void b(void) { work(2000); a(); }
int main(void) { a(); b(); return 0; }
