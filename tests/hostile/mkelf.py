#!/usr/bin/env python3
"""mkelf.py OUT [MUTATION] - writes a small RV64 ELF executable built here byte by byte
(so the hostile tests need no cross compiler), or a corrupted copy of it.

The good file: one PT_LOAD R+X segment at 0x10000 holding the code below, sections
.text, .symtab, .strtab, .shstrtab, and function symbols main (calls leaf, then loops
back) and leaf (addi; ret).  MUTATION names one corruption; "list" prints them all."""
import struct, sys

BASE = 0x10000
# main: addi sp,sp,-16 ; jal ra,leaf ; j main        leaf: addi a0,a0,1 ; ret
CODE = struct.pack("<5I", 0xff010113, 0x008000ef, 0xff9ff06f, 0x00150513, 0x00008067)
MAIN, LEAF = BASE + 0x1000, BASE + 0x1000 + 12

def build(mut=None):
    ehsize, phsize, shsize = 64, 56, 64
    text_off = 0x1000
    strtab = b"\0main\0leaf\0"
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    def sym(name, value, size, info, shndx):
        return struct.pack("<IBBHQQ", name, info, 0, shndx, value, size)
    syms = sym(0, 0, 0, 0, 0) + sym(1, MAIN, 12, 0x12, 1) + sym(6, LEAF, 8, 0x12, 1)
    if mut == "sym_shndx":
        syms = sym(0, 0, 0, 0, 0) + sym(1, MAIN, 12, 0x12, 0xfeff) + sym(6, LEAF, 8, 0x12, 77)
    if mut == "sym_name":
        syms = sym(0, 0, 0, 0, 0) + sym(0xfffffff0, MAIN, 12, 0x12, 1) + sym(len(strtab), LEAF, 8, 0x12, 1)
    if mut == "sym_wrap":
        syms = (sym(0, 0, 0, 0, 0) + sym(1, 0xfffffffffffffff0, 0x100, 0x12, 1) +
                sym(6, 0xffffffffffffffff, 0, 0x12, 1) + sym(1, 0, 0xffffffffffffffff, 0x12, 1))
    if mut == "sym_many":  # 50000 overlapping symbols of every size
        syms = sym(0, 0, 0, 0, 0) + b"".join(
            sym(1 + (i % 2) * 5, MAIN + (i % 20) - 4, (i * 7919) % 64, 0x12 if i % 3 else 0x22, 1)
            for i in range(50000))
    sym_off = text_off + len(CODE)
    sym_off = (sym_off + 7) & ~7
    str_off = sym_off + len(syms)
    shstr_off = str_off + len(strtab)
    sh_off = (shstr_off + len(shstr) + 7) & ~7
    def sh(name, typ, flags, addr, off, size, link, info, align, entsize):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, addr, off, size, link, info, align, entsize)
    sym_link, sym_entsize, sym_size = 3, 24, len(syms)
    if mut == "symtab_link":
        sym_link = 99
    if mut == "symtab_link_self":
        sym_link = 2
    if mut == "symtab_entsize0":
        sym_entsize = 0
    if mut == "symtab_entsize1":
        sym_entsize = 1
    if mut == "symtab_entsize_huge":
        sym_entsize = 0xffffffffffffffff
    if mut == "symtab_size_huge":
        sym_size = 0x7fffffffffffff00
    if mut == "symtab_size_odd":
        sym_size = len(syms) - 5
    sym_offset = sym_off if mut != "symtab_offset" else 0xffffffff00
    shdrs = (sh(0, 0, 0, 0, 0, 0, 0, 0, 0, 0) +
             sh(1, 1, 6, MAIN, text_off, len(CODE) if mut != "text_size_huge" else 1 << 62, 0, 0, 4, 0) +
             sh(7, 2, 0, 0, sym_offset, sym_size, sym_link, 1, 8, sym_entsize) +
             sh(15, 3, 0, 0, str_off, len(strtab) if mut != "strtab_size_huge" else 1 << 40, 0, 0, 1, 0) +
             sh(23, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0))
    shnum, shstrndx = 5, 4
    if mut == "shnum_huge":
        shnum = 0xffff
    if mut == "shstrndx_bad":
        shstrndx = 200
    shoff = sh_off if mut != "shoff_beyond" else 0x7ffffffffff0
    if mut == "shoff_zero_num":  # e_shnum 0 with a section 0 claiming 2^32 sections
        shnum = 0
        shdrs = sh(0, 0, 0, 0, 0, 1 << 32, 0, 0, 0, 0) + shdrs[64:]
    phoff = ehsize
    p_off, p_filesz = text_off, len(CODE)
    if mut == "phdr_filesz_huge":
        p_filesz = 1 << 62
    if mut == "phdr_offset_beyond":
        p_off = 0xfffffffffffff000
    if mut == "phdr_wrap":
        p_off, p_filesz = 0x10, 0xfffffffffffffff8
    phnum = 1 if mut != "phnum_huge" else 0xfff0
    if mut == "phoff_beyond":
        phoff = 0x7fffffff0000
    ph = struct.pack("<IIQQQQQQ", 1, 5, p_off, BASE + 0x1000, BASE + 0x1000, p_filesz, len(CODE), 0x1000)
    machine = 243 if mut != "machine_x86" else 62
    cls = 2 if mut != "class_bad" else 7
    ident = b"\x7fELF" + bytes([cls, 1, 1, 0]) + b"\0" * 8
    eh = ident + struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, MAIN, phoff, shoff, 0, ehsize,
                             phsize, phnum, shsize, shnum, shstrndx)
    img = bytearray(sh_off + len(shdrs))
    img[0:64] = eh
    if phoff < len(img):
        img[phoff:phoff + phsize] = ph
    img[text_off:text_off + len(CODE)] = CODE
    img[sym_off:sym_off + len(syms)] = syms
    img[str_off:str_off + len(strtab)] = strtab
    img[shstr_off:shstr_off + len(shstr)] = shstr
    img[sh_off:sh_off + len(shdrs)] = shdrs
    return bytes(img)

MUTATIONS = ["sym_shndx", "sym_name", "sym_wrap", "sym_many", "symtab_link", "symtab_link_self",
             "symtab_entsize0", "symtab_entsize1", "symtab_entsize_huge", "symtab_size_huge",
             "symtab_size_odd", "symtab_offset", "text_size_huge", "strtab_size_huge",
             "shnum_huge", "shstrndx_bad", "shoff_beyond", "shoff_zero_num", "phdr_filesz_huge",
             "phdr_offset_beyond", "phdr_wrap", "phnum_huge", "phoff_beyond", "machine_x86",
             "class_bad"]

if __name__ == "__main__":
    if sys.argv[1] == "list":
        print(" ".join(MUTATIONS))
        sys.exit(0)
    mut = sys.argv[2] if len(sys.argv) > 2 else None
    if mut and mut not in MUTATIONS:
        sys.exit("unknown mutation " + mut)
    open(sys.argv[1], "wb").write(build(mut))
