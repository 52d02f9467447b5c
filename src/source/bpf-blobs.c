/* The object that carries the BPF objects as sections of its own (its
 * Makefile.am rule adds them with objcopy; src/source/bpf-blob.h). */
const char bpf_blobs_linked = 1;
