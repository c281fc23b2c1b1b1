/* Linux system headers that Glibc's Swift module leaves out; nothing else. */
#include <sys/epoll.h>
