"""The tiers a test belongs to, declared at the test with pytest markers (a module's `pytestmark`
or a test's decorator) and chosen with `-m` by the scripts: what runs where is read from the
tests, not from lists of files in shell. A test without a tier runs in the whole suite on this
machine only. `--strict-markers` (the scripts pass it) makes a misspelt tier an error."""

TIERS = {
    "quick": "in the developer's loop (scripts/test.sh --quick: the debug build, under 3 minutes)",
    "roots": "exercises what differs between wlroots releases (the plugin's glue, the reference "
             "host, the preload, the compositors): run again in each Debian root (scripts/test-roots.sh)",
    "release": "needs the release plugin as shipped (build/release): this machine only",
    "valgrind": "runs under valgrind: this machine only",
    "slow": "takes half a minute or more: left out of the quick tier",
    "packages": "builds or installs what is shipped (make install, the packages): this machine only",
    # Not a tier: a declaration, which test_suite_rules.py checks.
    "wording": "reads a sentence of the log because its wording is what it tests (events.logged)",
}


def register(config):
    for name, what in TIERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, what))
