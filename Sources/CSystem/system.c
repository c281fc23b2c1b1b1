#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <sys/mman.h>
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

int glue_peer(int fd, pid_t *pid, uid_t *uid) {
	struct ucred cred;
	socklen_t length = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) {
		return -1;
	}
	*pid = cred.pid;
	*uid = cred.uid;
	return 0;
}

int glue_accept(int fd) {
	return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

static int release_object(struct dl_phdr_info *info, size_t size, void *context) {
	(void)size;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t *asked = context;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *header = &info->dlpi_phdr[i];
		if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) {
			continue;
		}
		uintptr_t start = (info->dlpi_addr + header->p_vaddr) & ~(page - 1);
		uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
		if (end > start) {
			madvise((void *)start, end - start, MADV_PAGEOUT);
			*asked += end - start;
		}
	}
	return 0;
}

size_t glue_release_readonly_pages(void) {
	size_t asked = 0;
	dl_iterate_phdr(release_object, &asked);
	return asked;
}
