/*
 * late-loader: a program that links no Wayland library and loads one late, as Python loads an
 * extension module: dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL), then calls its
 * ENTRY(argc, argv) with the arguments after ENTRY, and exits with what it returns.
 *
 *   late-loader LIBRARY ENTRY [ARGUMENTS…]
 *
 * Loaded RTLD_LOCAL, the library and what it links (libwayland-server, wlroots) are in no
 * global scope: a preloaded wrapper that looks its real function up with dlsym(RTLD_NEXT)
 * finds nothing there.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
	if (argc < 3) {
		fprintf(stderr, "usage: late-loader LIBRARY ENTRY [ARGUMENTS...]\n");
		return 2;
	}
	void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (library == NULL) {
		fprintf(stderr, "late-loader: %s\n", dlerror());
		return 2;
	}
	int (*entry)(int, char **) = (int (*)(int, char **))dlsym(library, argv[2]);
	if (entry == NULL) {
		fprintf(stderr, "late-loader: %s\n", dlerror());
		return 2;
	}
	return entry(argc - 3, argv + 3);
}
