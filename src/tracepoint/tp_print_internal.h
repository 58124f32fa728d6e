/* tp_print_internal.h - the parsed print fmt tree, shared by the parser (tp_print.c)
 * and the evaluator (tp_print_eval.c).  Not for use outside src/tracepoint/. */
#ifndef TEPHRA_TRACEPOINT_TP_PRINT_INTERNAL_H
#define TEPHRA_TRACEPOINT_TP_PRINT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracepoint/trace_format.h"

enum node_kind { N_NUM, N_STR, N_FIELD, N_UNARY, N_BINARY, N_COND, N_CAST, N_CALL, N_LIST,
		 N_INDEX };

enum call_fn { FN_PRINT_FLAGS, FN_PRINT_SYMBOLIC, FN_GET_STR, FN_GET_DYN_LEN, FN_PRINT_HEX,
	       FN_PRINT_HEX_STR, FN_EXPECT };

/* A print fmt deeper than these is refused (its samples print as perf prints a format
 * it cannot parse: [FAILED TO PARSE] and the fields): nesting recurses in the parser,
 * and a tree's height in the evaluator and in free.  The
 * kernel's formats nest a few levels; the fuzzer's `{{{{...` overflowed the stack. */
#define TP_PRINT_MAX_NESTING 200
#define TP_PRINT_MAX_HEIGHT 1000

struct tp_print_node {
	enum node_kind kind;
	int op;                     /* operator: '+', '!', 'L' (<<), 'R' (>>), 'E' (==), … */
	uint64_t num;
	char *str;
	const struct tp_field *field;
	struct tp_print_node **kids;
	size_t nr_kids;
	enum call_fn fn;
	unsigned cast_bytes;        /* 0: no narrowing (pointers, long long, unknown types) */
	int cast_signed;
	int prec;                   /* N_BINARY: its precedence level (levels[] index) */
	int paren;                  /* written in parentheses */
	unsigned height;            /* 1 + its tallest kid's height: bounds the evaluator's
				     * and free's recursion (TP_PRINT_MAX_HEIGHT) */
	int unknown;                /* holds a name the kernel left unresolved (an enum
				     * constant, a kernel variable): evaluates as 0, and a
				     * __print_flags/__print_symbolic entry with it never matches */
};

#endif
