#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "system_glue.h"

/* Written by the handler, so plain C: nothing in it may allocate, lock or touch Swift's runtime. */
static int termination_pipe[2] = { -1, -1 };
static unsigned termination_grace = 2;
static volatile sig_atomic_t termination_requested = 0;

static void on_termination(int signal) {
	(void)signal;
	int saved = errno;
	termination_requested = 1;
	alarm(termination_grace);
	char byte = 1;
	ssize_t written = write(termination_pipe[1], &byte, 1);
	(void)written;
	errno = saved;
}

int glue_termination_install(unsigned grace, int with_parent) {
	if (termination_pipe[0] < 0 && pipe2(termination_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		return -1;
	}
	termination_grace = grace;
	struct sigaction action = { .sa_handler = on_termination };
	sigemptyset(&action.sa_mask);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	/* A reader that has gone must end the program through its loop, which releases the device
	 * first: SIGPIPE's default would end it mid-write with the device still set up. */
	signal(SIGPIPE, SIG_IGN);
	if (with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
	}
	return termination_pipe[0];
}

int glue_termination_requested(void) {
	return termination_requested;
}
