# ibv_add_provider(<name> [TEST] <source>...)
#
# The one way this tree builds a provider, whose sources declare it with
# PROVIDER_DRIVER(<name>, ...) (providers/README.md):
#   - target <name>: the plugin lib<name>-rdmav<N>.so that the library
#     dlopen()s, linked against libibverbs with no undefined symbol left
#     and, unless TEST, verbs_provider_<name> its only export;
#   - target <name>-pabi<M> for each older provider ABI M of
#     releases/table: the same sources built with
#     VERBS_PROVIDER_ABI=M into lib<name>-rdmav<M>.so, which the cores of
#     those releases load too (driver.h gives it their layouts and binds
#     its calls to IBVERBS_PRIVATE_<M>);
#   - with ENABLE_STATIC, target <name>-static: lib<name>-rdmav<N>.a, for
#     clients built with RDMA_STATIC_PROVIDERS.
# A provider of the tree installs that archive, and the global property
# IBV_STATIC_PROVIDERS collects its name: libibverbs/ reads it to define
# what RDMA_STATIC_PROVIDERS=all links and the libraries its .pc adds to
# a static link, so such a provider is declared before libibverbs/ is
# configured. TEST marks a provider that exists for the tests (and the
# demo): it is built the same way, installed nowhere, and not part of
# "all".
#
# A provider of the tree (not TEST) is installed the way rdma-core's are,
# so that either core finds it with no setting of its own:
#   - the plugin into VERBS_PROVIDER_DIR (/usr/lib/<multiarch>/libibverbs),
#     the directory both cores dlopen() "driver <name>" from, whatever
#     CMAKE_INSTALL_PREFIX is;
#   - <name>.driver, the one line "driver <name>", into IBV_CONFIG_DIR
#     (/etc/libibverbs.d), written into the build tree by this function.
# The global property IBV_INSTALLED_PROVIDERS lists them (the install
# test checks that each lands there).
# These are the paths Debian's ibverbs-providers uses for rxe and siw:
# installing this tree by hand over a system that has it overwrites its
# files. The Debian package shares the system with it instead (a
# diversion of the two plugins and driver files of other names; see
# debian/README.source), and the RPM takes its place.
function(ibv_add_provider name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "TEST" "" "")
  set(sources ${arg_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "ibv_add_provider(${name}): no source files")
  endif()
  if(NOT arg_TEST AND TARGET ibverbs)
    message(FATAL_ERROR "ibv_add_provider(${name}) comes after libibverbs/ "
      "has read IBV_STATIC_PROVIDERS: add the provider under providers/")
  endif()

  set(base "${name}-rdmav${IBVERBS_PABI_VERSION}")
  foreach(pabi IN LISTS IBV_PABIS)
    set(target ${name})
    if(NOT pabi EQUAL IBVERBS_PABI_VERSION)
      set(target ${name}-pabi${pabi})
    endif()
    add_library(${target} MODULE ${sources})
    set_target_properties(${target} PROPERTIES PREFIX "lib"
      OUTPUT_NAME ${name}-rdmav${pabi} SUFFIX ".so")
    if(NOT pabi EQUAL IBVERBS_PABI_VERSION)
      target_compile_definitions(${target} PRIVATE VERBS_PROVIDER_ABI=${pabi})
    endif()
    target_link_options(${target} PRIVATE ${IBV_NO_UNDEFINED})
    # The data path calls the C library and the core (memcpy, spin locks,
    # the doorbell) through the GOT: no PLT jump per call.
    target_compile_options(${target} PRIVATE -fno-plt)
    if(NOT arg_TEST)
      # The entry point and nothing else, whatever visibility the sources
      # declare (a TEST provider keeps the hooks its tests dlsym()).
      set(map ${CMAKE_CURRENT_BINARY_DIR}/${name}.map)
      file(WRITE ${map}
        "{\n  global: verbs_provider_${name};\n  local: *;\n};\n")
      target_link_options(${target} PRIVATE -Wl,--version-script=${map})
      set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${map})
    endif()
    target_link_libraries(${target} PRIVATE ibverbs)
    if(NOT arg_TEST)
      install(TARGETS ${target} LIBRARY DESTINATION ${VERBS_PROVIDER_DIR})
    endif()
  endforeach()
  if(NOT arg_TEST)
    set(driver_file ${CMAKE_CURRENT_BINARY_DIR}/${name}.driver)
    file(WRITE ${driver_file} "driver ${name}\n")
    install(FILES ${driver_file} DESTINATION ${IBV_CONFIG_DIR})
    set_property(GLOBAL APPEND PROPERTY IBV_INSTALLED_PROVIDERS ${name})
  endif()

  if(NOT ENABLE_STATIC)
    return()
  endif()
  add_library(${name}-static STATIC ${sources})
  target_compile_options(${name}-static PRIVATE -fno-plt)
  set_target_properties(${name}-static PROPERTIES OUTPUT_NAME ${base})
  if(NOT arg_TEST)
    install(TARGETS ${name}-static
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
    set_property(GLOBAL APPEND PROPERTY IBV_STATIC_PROVIDERS ${name})
  endif()
endfunction()
