# How the analysis kernel is compiled, for the host by the root's Makefile (tests, benches,
# the local stack) and for Lambda's arm64 by layers/engine/Makefile, both with the C
# compiler of the ziglang package (requirements/dev.txt), which targets either machine.
# -ffp-contract=off: no fused multiply-adds, which compilers for aarch64 emit by default and
# those for x86_64 do not, so that both machines round every value alike.
KERNEL_CC_FLAGS = -std=c11 -O2 -Wall -Wextra -ffp-contract=off
KERNEL_CFLAGS = $(KERNEL_CC_FLAGS) -fPIC -shared -s
KERNEL_LIBRARY = blackjack/strategy/_kernel.so
