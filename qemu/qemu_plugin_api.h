/* qemu_plugin_api.h - our own declarations of the part of QEMU's TCG plugin API that the
 * tephra plugin uses, written from the public API documentation of QEMU 7.2
 * (docs/devel/tcg-plugins.rst and the API reference), because Debian ships no
 * qemu-plugin.h.  API version 1: the plugin exports qemu_plugin_version = 1 and checks
 * at install time that QEMU reports the same current version (the layout of
 * qemu_info_t and the signatures below are those of version 1). */
#ifndef TEPHRA_QEMU_PLUGIN_API_H
#define TEPHRA_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEPHRA_QEMU_PLUGIN_API_VERSION 1

#define TEPHRA_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin at install time. */
typedef struct {
	const char *target_name; /* "riscv64", "riscv32", ... */
	struct {
		int min; /* oldest plugin API version this QEMU accepts */
		int cur; /* the API version this QEMU implements */
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;   /* opaque: a translation block being translated */
struct qemu_plugin_insn; /* opaque: one of its instructions */

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS = 0,
	QEMU_PLUGIN_CB_R_REGS = 1,
	QEMU_PLUGIN_CB_RW_REGS = 2,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64 = 0,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
					      int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
					      uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
					      uint64_t a8);

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_path_to_binary(void);
void qemu_plugin_outs(const char *string);

#endif
