# What foot shows in the compositor tests: a white screen with a red band along its top row and
# no cursor, drawn again each time foot's size changes (SIGWINCH), so that the panel's raw pixels
# show where foot's top edge is and nothing else.
draw() { printf '\033]11;#ffffff\007\033[?25l\033[H\033[2J\033[48;2;255;0;0m\033[K\033[0m'; }
trap draw WINCH
draw
while :; do sleep 0.1; done
