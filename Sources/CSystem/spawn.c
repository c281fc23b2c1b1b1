#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "system_glue.h"

/* The program's path: `file` itself when it names one, else the first executable `file` in a
 * directory of $PATH (as execvp searches; resolved before the child exists, for the child may
 * only make system calls). */
static int resolve(const char *file, char *path, size_t size) {
	if (strchr(file, '/')) {
		if (strlen(file) >= size) {
			return -ENAMETOOLONG;
		}
		strcpy(path, file);
		return 0;
	}
	const char *search = getenv("PATH");
	if (!search || !*search) {
		search = "/usr/local/bin:/usr/bin:/bin";
	}
	int error = -ENOENT;
	for (const char *start = search; ; ) {
		const char *end = strchrnul(start, ':');
		size_t length = (size_t)(end - start);
		if (length == 0) {
			length = 1;
			start = ".";
		}
		if (length + 1 + strlen(file) < size) {
			snprintf(path, size, "%.*s/%s", (int)length, start, file);
			if (access(path, X_OK) == 0) {
				return 0;
			}
			if (errno == EACCES) {
				error = -EACCES;
			}
		}
		if (*end == '\0') {
			break;
		}
		start = end + 1;
	}
	return error;
}

/* Makes `from` the child's descriptor `to`, without close-on-exec. */
static int place(int from, int to) {
	if (from == to) {
		int flags = fcntl(from, F_GETFD);
		return flags < 0 ? -1 : fcntl(from, F_SETFD, flags & ~FD_CLOEXEC);
	}
	return dup2(from, to) < 0 ? -1 : 0;
}

pid_t glue_spawn(const char *file, char *const argv[], int input, int output, int death_signal) {
	char path[PATH_MAX];
	int resolved = resolve(file, path, sizeof(path));
	if (resolved < 0) {
		return resolved;
	}
	int null = -1;
	if (input < 0) {
		null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0) {
			return -errno;
		}
		input = null;
	}
	pid_t parent = getpid();
	/* What the child could not do, read after it has exec'd or exited (vfork: it shares our
	 * memory until then). */
	volatile int failure = 0;
	/* No handler of ours may run in the child while it shares our memory. */
	sigset_t all, before;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &before);
	pid_t pid = vfork();
	if (pid == 0) {
		/* Every signal as a new program has it: at its default, none blocked (a compositor's
		 * loop blocks the ones it reads through a signalfd, and may ignore SIGPIPE). */
		struct sigaction standard = { .sa_handler = SIG_DFL };
		for (int s = 1; s < NSIG; s++) {
			sigaction(s, &standard, NULL);
		}
		if (death_signal > 0) {
			/* Ends with the thread that started it, should that end first (and that thread
			 * may have ended already). */
			if (prctl(PR_SET_PDEATHSIG, death_signal) != 0 || getppid() != parent) {
				failure = ESRCH;
				_exit(127);
			}
		}
		/* The output first: the input may sit at descriptor 1. */
		int from_output = output == 0 ? fcntl(output, F_DUPFD_CLOEXEC, 3) : output;
		if (from_output < 0 || place(input, 0) != 0 || place(from_output, 1) != 0) {
			failure = errno;
			_exit(127);
		}
		/* None of the caller's other descriptors (a compositor's DRM fds and sockets). */
		syscall(SYS_close_range, 3, ~0U, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execve(path, argv, environ);
		failure = errno;
		_exit(127);
	}
	int error = errno;
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (null >= 0) {
		close(null);
	}
	if (pid < 0) {
		return -error;
	}
	if (failure != 0) {
		int status;
		waitpid(pid, &status, 0);
		return -failure;
	}
	return pid;
}
