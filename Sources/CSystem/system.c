#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include "system_glue.h"

const char *glue_library_path(void) {
	Dl_info info;
	if (dladdr((void *)glue_library_path, &info) == 0) {
		return NULL;
	}
	return info.dli_fname;
}

int glue_pipe_cloexec(int fds[2]) {
	return pipe2(fds, O_CLOEXEC);
}

int glue_temporary_file(char *template) {
	return mkostemp(template, O_CLOEXEC);
}

int glue_peer_uid(int fd, uid_t *uid) {
	struct ucred cred;
	socklen_t length = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) {
		return -1;
	}
	*uid = cred.uid;
	return 0;
}

int glue_accept(int fd) {
	return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}
