/* Linux system headers that Glibc's Swift module leaves out, and the calls it cannot make. */
#include <sys/epoll.h>
#include <sys/prctl.h>

/* prctl(PR_SET_PDEATHSIG, signal) (variadic in C): the signal this process gets when the thread
 * that started it ends. */
static inline int clinux_set_parent_death_signal(int signal) {
	return prctl(PR_SET_PDEATHSIG, signal);
}
