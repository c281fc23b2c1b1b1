/*
 * The C calls the system layer (OrientSystem) makes on processes, files and sockets: macros,
 * variadic functions and _GNU_SOURCE calls that Swift cannot make itself. Mechanism only, and
 * no Wayland: the sensor helper and the CLI link it without libwayland.
 */
#ifndef WLR_ORIENT_SYSTEM_GLUE_H
#define WLR_ORIENT_SYSTEM_GLUE_H

#include <sys/types.h>

/* The file this code was loaded from (dladdr; needs _GNU_SOURCE, which Swift's Glibc lacks),
 * or NULL: the plugin looks for its helper program beside it. */
const char *glue_library_path(void);

/* Starts `file` (a bare name is searched on $PATH) with `argv`, `input` as its descriptor 0
 * (-1: /dev/null) and `output` as 1, no other descriptor of the caller's, every signal at its
 * default and unblocked, and, with `death_signal` above 0, that signal sent to it when the
 * calling thread ends (PR_SET_PDEATHSIG: a helper never outlives its compositor, even one killed
 * with SIGKILL). Returns its pid, or -errno (a program that cannot be run is an error here, not a
 * child that exits 127). */
pid_t glue_spawn(const char *file, char *const argv[], int input, int output, int death_signal);

/* An orderly end on SIGTERM and SIGINT, bounded: the returned descriptor (a pipe's read end,
 * -1 on failure) becomes readable, and an alarm of `grace` seconds ends the process by its
 * default action should the orderly end take longer. With `with_parent`, SIGTERM also comes when
 * the thread that started the process ends (PR_SET_PDEATHSIG). */
int glue_termination_install(unsigned grace, int with_parent);
/* Whether SIGTERM (or SIGINT) has come since `glue_termination_install`. */
int glue_termination_requested(void);

/* pipe2(fds, O_CLOEXEC) (_GNU_SOURCE): a pipe no other program started from another thread
 * can inherit, even for an instant. */
int glue_pipe_cloexec(int fds[2]);

/* madvise(MADV_PAGEOUT) over every read-only segment of the program and of each library it has
 * loaded (dl_iterate_phdr): the kernel reclaims the pages of those that this process alone maps
 * and leaves shared ones be (Linux 5.4+; older kernels refuse, and nothing changes). Returns the
 * bytes asked about. */
size_t glue_release_readonly_pages(void);

/* mkostemp(template, O_CLOEXEC) (_GNU_SOURCE): a new file of this caller's own, named after
 * TEMPLATE (its last six characters XXXXXX, replaced), mode 0600, that no program started
 * meanwhile inherits. Returns its descriptor, or -1 with errno set. */
int glue_temporary_file(char *template);

/* The pid and uid of the process at the other end of a Unix socket, as it was when it connected
 * or listened (SO_PEERCRED, _GNU_SOURCE): 0 on success, -1 with errno set. */
int glue_peer(int fd, pid_t *pid, uid_t *uid);

/* accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK) (_GNU_SOURCE): a connection no child
 * inherits, that never blocks. */
int glue_accept(int fd);

#endif
