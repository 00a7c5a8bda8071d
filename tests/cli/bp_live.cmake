# bp's live helpers against the real frameworks (tests/cli/bp/live_*_test.py): PyTorch from
# Debian (/usr/bin/python3), JAX and TensorFlow from the PyPI venv (SUITE_PYTHON_VENV). Each
# trains small networks, imports the sidecars with the built bp and requires agreement, then
# requires tampered gradients, momentum buffers and learning rates to be caught.
# A missing interpreter is a Skip (exit 77) with the reason; with CI=true it is a failure.
set(SUITE_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python interpreter with torch for the torch cross-checks")
set(_bp_live_dir ${CMAKE_CURRENT_LIST_DIR}/bp)

function(bp_live_test name python reason)
  if(python AND EXISTS ${python})
    add_test(NAME ${name} COMMAND ${python} ${_bp_live_dir}/${ARGN} $<TARGET_FILE:bp>
                                  ${CMAKE_CURRENT_BINARY_DIR}/${name})
  else()
    add_test(NAME ${name}
             COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but ${reason}' >&2; exit 1; fi; echo 'SKIP: ${reason}'; exit 77")
  endif()
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bp;live" TIMEOUT 300
                                          ENVIRONMENT "SOURCE_DATE_EPOCH=1700000000;JAX_PLATFORMS=cpu;TF_CPP_MIN_LOG_LEVEL=2")
endfunction()

set(_venv_python "")
if(SUITE_PYTHON_VENV)
  set(_venv_python ${SUITE_PYTHON_VENV}/bin/python)
endif()
bp_live_test(bp_live_pytorch "${SUITE_TORCH_PYTHON}" "${SUITE_TORCH_PYTHON} (Debian python3-torch) not found; PyTorch live-helper test skipped" live_pytorch_test.py)
bp_live_test(bp_live_iris "${SUITE_TORCH_PYTHON}" "${SUITE_TORCH_PYTHON} (Debian python3-torch) not found; iris pipeline test skipped" live_iris_test.py)
bp_live_test(bp_live_jax "${_venv_python}" "SUITE_PYTHON_VENV is empty or has no bin/python (.ci/python-env makes it); JAX live-helper test skipped" live_jax_test.py)
bp_live_test(bp_live_tensorflow "${_venv_python}" "SUITE_PYTHON_VENV is empty or has no bin/python (.ci/python-env makes it); TensorFlow recipe test skipped" live_tensorflow_test.py)
bp_live_test(bp_live_jax_mlp "${_venv_python}" "SUITE_PYTHON_VENV is empty or has no bin/python (.ci/python-env makes it); JAX MLP tensor-receipt test skipped" live_jax_mlp_test.py)
bp_live_test(bp_live_jax_schedule "${_venv_python}" "SUITE_PYTHON_VENV is empty or has no bin/python (.ci/python-env makes it); JAX schedule and clip test skipped" live_jax_schedule_test.py)
bp_live_test(bp_live_mlp "${SUITE_TORCH_PYTHON}" "${SUITE_TORCH_PYTHON} (Debian python3-torch) not found; MLP tensor-receipt test skipped" live_mlp_test.py)
bp_live_test(bp_live_mlp_schedule "${SUITE_TORCH_PYTHON}" "${SUITE_TORCH_PYTHON} (Debian python3-torch) not found; learning-rate scheduler test skipped" live_mlp_schedule_test.py)

# XLA's CPU tanh, logistic, exp and erfc measured against the allowances bp verify tensor holds a
# jax receipt's activations to (libcore/mlp_audit/xla_math.hpp): a jaxlib whose approximations are
# worse fails here, not as a false verdict on a user's run. About 5 s.
if(_venv_python AND EXISTS ${_venv_python})
  add_test(NAME bp_live_xla_allowances COMMAND ${_venv_python} ${_bp_live_dir}/measure_xla_transcendentals.py --check 1000000)
else()
  add_test(NAME bp_live_xla_allowances
           COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but SUITE_PYTHON_VENV has no bin/python' >&2; exit 1; fi; echo 'SKIP: SUITE_PYTHON_VENV is empty or has no bin/python (.ci/python-env makes it); XLA allowance test skipped'; exit 77")
endif()
set_tests_properties(bp_live_xla_allowances PROPERTIES SKIP_RETURN_CODE 77 LABELS "cli;bp;live" TIMEOUT 120 ENVIRONMENT "JAX_PLATFORMS=cpu")
