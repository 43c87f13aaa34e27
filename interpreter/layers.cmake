# The layering rule, enforced by the build: a folder's sources include
# headers only from their own folder and from the folders its library links
# (directly or through them). `napkin_layer(TARGET FOLDER DEPENDS ...)` records
# a folder's library and what it may use; the check runs as a build step
# before the library compiles, so a forbidden include fails the build.

# The folders each layer may include, itself and its dependencies' closure.
function(napkin_layer target folder)
  cmake_parse_arguments(L "" "" "DEPENDS" ${ARGN})
  set(allowed ${folder})
  foreach(dep IN LISTS L_DEPENDS)
    get_property(dep_allowed GLOBAL PROPERTY NAPKIN_LAYER_${dep})
    if(NOT dep_allowed)
      message(FATAL_ERROR "napkin_layer(${target}): ${dep} is not a layer declared before it")
    endif()
    list(APPEND allowed ${dep_allowed})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL PROPERTY NAPKIN_LAYER_${target} ${allowed})

  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/${folder}/*.hpp ${CMAKE_SOURCE_DIR}/${folder}/*.h ${CMAKE_SOURCE_DIR}/${folder}/*.cuh)
  set(files ${headers})
  foreach(s IN LISTS sources)
    get_filename_component(abs ${s} ABSOLUTE BASE_DIR ${source_dir})
    if(abs MATCHES "^${CMAKE_SOURCE_DIR}/")  # generated files are not checked
      list(APPEND files ${abs})
    endif()
  endforeach()
  string(REPLACE "/" "_" stamp_name ${folder})
  set(stamp ${CMAKE_BINARY_DIR}/layers/${stamp_name}.ok)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} "-DFOLDER=${folder}" "-DALLOWED=${allowed}" "-DFILES=${files}"
            "-DROOT=${CMAKE_SOURCE_DIR}" "-DSTAMP=${stamp}" -P ${NAPKIN_LAYERS_SCRIPT}
    DEPENDS ${files} ${NAPKIN_LAYERS_SCRIPT}
    COMMENT "Checking what ${folder}/ includes"
    VERBATIM)
  add_custom_target(${target}_layer DEPENDS ${stamp})
  add_dependencies(${target} ${target}_layer)
endfunction()
set(NAPKIN_LAYERS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/check_layers.cmake)
