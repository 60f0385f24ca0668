# ibv_add_provider(<name> [TEST] <source>...)
#
# The one way this tree builds a provider, whose sources declare it with
# PROVIDER_DRIVER(<name>, ...) (providers/README.md):
#   - target <name>: the plugin lib<name>-rdmav34.so that the library
#     dlopen()s, linked against libibverbs with no undefined symbol left;
#   - with ENABLE_STATIC, target <name>-static: lib<name>-rdmav34.a, for
#     clients built with RDMA_STATIC_PROVIDERS.
# A provider of the tree installs that archive, and the global property
# IBV_STATIC_PROVIDERS collects its name: libibverbs/ reads it to define
# what RDMA_STATIC_PROVIDERS=all links and the libraries its .pc adds to
# a static link, so such a provider is declared before libibverbs/ is
# configured. TEST marks a provider that exists for the tests (and the
# demo): it is built the same way, installed nowhere, and not part of
# "all".
#
# Installing the plugin and a <name>.driver file is left out on purpose:
# where they go depends on how they share the system with Debian's
# ibverbs-providers, which installs the same names.
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
  add_library(${name} MODULE ${sources})
  set_target_properties(${name} PROPERTIES PREFIX "lib" OUTPUT_NAME ${base}
    SUFFIX ".so")
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
  target_link_libraries(${name} PRIVATE ibverbs)

  if(NOT ENABLE_STATIC)
    return()
  endif()
  add_library(${name}-static STATIC ${sources})
  set_target_properties(${name}-static PROPERTIES OUTPUT_NAME ${base})
  if(NOT arg_TEST)
    install(TARGETS ${name}-static
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
    set_property(GLOBAL APPEND PROPERTY IBV_STATIC_PROVIDERS ${name})
  endif()
endfunction()
