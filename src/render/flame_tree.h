/* flame_tree.h - the call tree a flame graph is drawn from.
 *
 * Stacks are streamed in one at a time and merged into a tree of frames: memory grows
 * with the number of distinct paths, never with the size of the input.  Each node keeps
 * two inclusive weights so one tree serves both a plain graph (column 0) and a
 * differential graph (column 0 = before, column 1 = after).
 *
 * Node 0 is the root ("all").  Frame names are interned once.  In the default mode
 * siblings are merged by name wherever they occur and sorted by name afterwards (as a
 * sorted folded file would give); in flame chart mode (FLAME_TREE_TIME_ORDER) a frame
 * continues only from the immediately preceding stack (as flamegraph.pl --flamechart
 * draws it): each frame has one start on the x axis and input order is kept. */
#ifndef TEPHRA_RENDER_FLAME_TREE_H
#define TEPHRA_RENDER_FLAME_TREE_H

#include <stddef.h>
#include <stdint.h>

#define FLAME_NONE UINT32_MAX

enum flame_tree_flags {
	FLAME_TREE_TIME_ORDER = 1 << 0, /* flame chart: a frame continues only from the
					 * previous stack, never merges across others */
	FLAME_TREE_REVERSE = 1 << 1,    /* add stacks leaf first (stack-reversed graph) */
	/* Keep each stack's own counts as summed from the input, for printing them back
	 * exactly (tephra diff --folded); without it they are derived by subtraction. */
	FLAME_TREE_STACK_COUNTS = 1 << 2,
};

struct flame_span {
	const char *s;
	size_t len;
};

struct flame_node {
	uint32_t name;         /* id for flame_tree_name() */
	uint32_t parent;       /* FLAME_NONE for the root */
	uint32_t first_child;  /* FLAME_NONE when a leaf */
	uint32_t last_child;
	uint32_t next_sibling;
	uint32_t hash_next;    /* chain in the (parent, name) index */
	double weight[2];      /* inclusive weight, per column */
};

struct flame_tree;

struct flame_tree *flame_tree_new(unsigned flags);
void flame_tree_free(struct flame_tree *t);

/* Adds W to column COL of every frame on the path FRAMES[0..N), root first (leaf first
 * with FLAME_TREE_REVERSE, which then reverses it). Empty names are skipped. */
void flame_tree_add(struct flame_tree *t, const struct flame_span *frames, size_t n,
		    int col, double w);

/* Sorts siblings by name (bytewise) unless in time order.  Call once after adding. */
void flame_tree_finish(struct flame_tree *t);

/* Multiplies column COL of every node (weights and self counts) by FACTOR. */
void flame_tree_scale(struct flame_tree *t, int col, double factor);

size_t flame_tree_nr_nodes(const struct flame_tree *t);
const struct flame_node *flame_tree_node(const struct flame_tree *t, uint32_t id);
const char *flame_tree_name(const struct flame_tree *t, uint32_t name_id);
size_t flame_tree_name_len(const struct flame_tree *t, uint32_t name_id);

/* The counts of the stacks that end at the node (its "self" samples): with
 * FLAME_TREE_STACK_COUNTS summed in input order, exactly as a folded line of the stack
 * totals them; otherwise its weight minus its children's (the same for whole counts). */
double flame_tree_self(const struct flame_tree *t, uint32_t id, int col);

/* Whether some input stack ends at the node (a folded line names its path), even with
 * a count of 0; not so for a frame only ever seen with callees. */
int flame_tree_ends_stack(const struct flame_tree *t, uint32_t id);

unsigned flame_tree_flags(const struct flame_tree *t);

/* FLAME_TREE_TIME_ORDER only: where the node starts on the x axis, in counts of column
 * COL (the column's total before the first stack through it was added). */
double flame_tree_start(const struct flame_tree *t, uint32_t id, int col);

#endif
