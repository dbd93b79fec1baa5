# One place for the warning flags every Kernelpad target uses.
add_library(kp_warnings INTERFACE)
target_compile_options(kp_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wsign-conversion -Wformat=2
  $<$<BOOL:${KP_WERROR}>:-Werror>)
