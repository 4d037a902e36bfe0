# The build refuses an include of the command line (sim/cli/) or of a protocol (protocols/) in an
# engine file: compiled with the engine target's include folders, a file including an engine header
# compiles and one including sim/cli/ or protocols/ does not find it. Run by ctest
# (tests/CMakeLists.txt), ENGINE_INCLUDES the target's INCLUDE_DIRECTORIES joined by '|':
#   cmake -DCXX=compiler -DENGINE_INCLUDES=dir|dir -DWORK=scratch-folder -P this-file
foreach(var CXX ENGINE_INCLUDES WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_engine_include.cmake: -D${var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})
string(REPLACE "|" ";" dirs "${ENGINE_INCLUDES}")
set(include_flags)
foreach(dir IN LISTS dirs)
  list(APPEND include_flags -I ${dir})
endforeach()

# Compiles a one-line file including HEADER with the engine's include folders; sets OK and OUT.
function(compile_include header)
  string(MAKE_C_IDENTIFIER ${header} name)
  file(WRITE ${WORK}/${name}.cpp "#include \"${header}\"\n")
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only ${include_flags} ${WORK}/${name}.cpp
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(status EQUAL 0)
    set(OK TRUE PARENT_SCOPE)
  else()
    set(OK FALSE PARENT_SCOPE)
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

# The control: an engine header is reachable (else the refusals below would prove nothing).
compile_include(sim/config/input_error.hpp)
if(NOT OK)
  message(FATAL_ERROR "an engine header does not compile with the engine's include folders:\n${OUT}")
endif()
foreach(header sim/cli/commands.hpp sim/cli/sweep/sweep_spec.hpp protocols/common/control.hpp)
  compile_include(${header})
  if(OK)
    message(FATAL_ERROR "${header} compiles with the engine's include folders (${ENGINE_INCLUDES}): the engine could include it")
  elseif(NOT OUT MATCHES "${header}: No such file or directory")
    message(FATAL_ERROR "${header} fails for another reason than not being found:\n${OUT}")
  endif()
  message(STATUS "refused, as it should be: #include \"${header}\" in an engine file")
endforeach()
