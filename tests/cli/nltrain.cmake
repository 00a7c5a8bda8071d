# nltrain CLI tests: each script runs the built binary and checks exit codes, outputs, files.
foreach(_t train errors crash gradcheck_control int_options stdin_pipe metrics_resume gradcheck_report batch memory_budget)
  add_test(NAME nltrain_cli_${_t}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/${_t}_test.sh $<TARGET_FILE:nltrain>)
  set_tests_properties(nltrain_cli_${_t} PROPERTIES LABELS "nltrain;cli")
endforeach()
# export / --from: safetensors files against the venv's safetensors and Debian's torch.
add_test(NAME nltrain_cli_export
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/export_test.sh $<TARGET_FILE:nltrain> "${SUITE_PYTHON_VENV}")
set_tests_properties(nltrain_cli_export PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;cli")
# Episodes of spill placement learnt by atenia and used by the next run (two tiers of known speed).
add_test(NAME nltrain_cli_episodes
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/episodes_test.sh $<TARGET_FILE:nltrain> $<TARGET_FILE:atenia>)
set_tests_properties(nltrain_cli_episodes PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;atenia;cli")
# The run directory as an atenia checkpoint root: atenia inspect / restore on it, old-format runs.
add_test(NAME nltrain_cli_checkpoint_root
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/checkpoint_root_test.sh $<TARGET_FILE:nltrain> $<TARGET_FILE:atenia>
                 "${SUITE_PYTHON_VENV}")
set_tests_properties(nltrain_cli_checkpoint_root PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;atenia;cli")
# atenia checkpoint inspect, nltrain eval and a second trainer on a run that saves every step.
add_test(NAME nltrain_cli_live_readers
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/live_readers_test.sh $<TARGET_FILE:nltrain> $<TARGET_FILE:atenia>)
set_tests_properties(nltrain_cli_live_readers PROPERTIES LABELS "nltrain;atenia;cli")
# gradcheck over the matrix: one test per rule (K = 1, 2, 4; plain, --stress, --fp64, both).
foreach(_rule delta titans hebbian moneta yaad memora lattice trellis atlas)
  add_test(NAME nltrain_cli_gradcheck_${_rule}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/gradcheck_test.sh $<TARGET_FILE:nltrain> ${_rule})
  set_tests_properties(nltrain_cli_gradcheck_${_rule} PROPERTIES LABELS "nltrain;cli")
  # The same under --schedule learned (the frequency gate; K = 2, 4).
  add_test(NAME nltrain_cli_gradcheck_learned_${_rule}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/gradcheck_test.sh $<TARGET_FILE:nltrain> ${_rule} learned)
  set_tests_properties(nltrain_cli_gradcheck_learned_${_rule} PROPERTIES LABELS "nltrain;cli")
endforeach()
# nltrain init + grads against PyTorch (tests/nl/torch/state_grads_check.py, sharing the model
# of mag_crosscheck.py). Without torch it is Skipped (77); with CI=true it fails.
set(SUITE_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python interpreter with torch for the torch cross-checks")
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME nltrain_torch_grads
           COMMAND ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/nl/torch/state_grads_check.py
                   --nltrain $<TARGET_FILE:nltrain> --work ${CMAKE_CURRENT_BINARY_DIR}/nltrain_torch)
else()
  add_test(NAME nltrain_torch_grads
           COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but ${SUITE_TORCH_PYTHON} is missing' >&2; exit 1; fi; echo 'SKIP: ${SUITE_TORCH_PYTHON} not found'; exit 77")
endif()
set_tests_properties(nltrain_torch_grads PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;torch")
# A step receipt's loss and gradients (what bp verify nltrain re-derived) against torch autograd.
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME nltrain_torch_receipt_grads
           COMMAND ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/nl/torch/receipt_grads_check.py --nltrain $<TARGET_FILE:nltrain>
                   --bp $<TARGET_FILE:bp> --work ${CMAKE_CURRENT_BINARY_DIR}/nltrain_torch_receipts)
  set_tests_properties(nltrain_torch_receipt_grads PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;bp;torch")
endif()
# train --metrics lines against schemas/nltrain-metrics.v0.1.0.json; a seeded run's metrics are
# the same bytes every time (and after a resume).
add_test(NAME nltrain_cli_metrics_schema
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/metrics_schema_test.py $<TARGET_FILE:nltrain>
                 ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(nltrain_cli_metrics_schema PROPERTIES LABELS "nltrain;cli")
# nltrain train --receipts | bp verify nltrain, the chain across a resume, tampered and damaged
# streams, the receipts against schemas/tensor-step.v0.1.0.json.
add_test(NAME nltrain_cli_receipts
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/receipts_test.py $<TARGET_FILE:nltrain> $<TARGET_FILE:bp>
                 ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(nltrain_cli_receipts PROPERTIES LABELS "nltrain;bp;cli")
# nltrain train --fp64: receipts verify (DeltaRule, Titans; K = 1, 2 fixed, 2 learned), same bytes,
# stop/resume bit-exact, a forged rate fails, precision changes on --resume refused.
add_test(NAME nltrain_cli_fp64
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/fp64_test.py $<TARGET_FILE:nltrain> $<TARGET_FILE:bp>
                 ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(nltrain_cli_fp64 PROPERTIES LABELS "nltrain;bp;cli")
# --vocab and --data-format: a u16 token run trains, resumes bit for bit and verifies (bp verify
# nltrain, full and compact receipts); eval and export carry the vocab; every refusal is one line.
add_test(NAME nltrain_cli_vocab
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/vocab_test.sh $<TARGET_FILE:nltrain> $<TARGET_FILE:bp>)
set_tests_properties(nltrain_cli_vocab PROPERTIES LABELS "nltrain;bp;cli")
# The default (vocab 256, bytes) writes the bytes nltrain wrote before --vocab existed
# (fixtures/nltrain/vocab256-d8.golden); skipped on another BLAS core type.
add_test(NAME nltrain_cli_vocab_golden
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/vocab_golden_test.sh $<TARGET_FILE:nltrain>)
set_tests_properties(nltrain_cli_vocab_golden PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;cli")
# train, eval, generate and gradcheck --json, init and grads against schemas/nltrain-*.v0.1.0.json
# (Debian's jsonschema), and hand-broken outputs refused.
add_test(NAME nltrain_cli_schemas
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/schemas_test.py $<TARGET_FILE:nltrain>
                 ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(nltrain_cli_schemas PROPERTIES LABELS "nltrain;cli")
# No file under apps/nltrain over 250 lines.
add_test(NAME nltrain_file_size COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/file_size_test.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(nltrain_file_size PROPERTIES LABELS "nltrain")
# nltrain train under mpirun (R = 1..4 ranks against one process, resume on other R, refusals,
# a killed rank); only where MPI was built in.
if(SUITE_HAVE_MPI)
  add_test(NAME nltrain_cli_mpi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/mpi_test.sh $<TARGET_FILE:nltrain> ${MPIEXEC_EXECUTABLE})
  set_tests_properties(nltrain_cli_mpi PROPERTIES LABELS "nltrain;cli;mpi" TIMEOUT 300)
  # --fp64 across 2 ranks: refused (exit 3, one line); 1 rank trains.
  add_test(NAME nltrain_cli_mpi_fp64 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/mpi_fp64_test.sh $<TARGET_FILE:nltrain> ${MPIEXEC_EXECUTABLE})
  set_tests_properties(nltrain_cli_mpi_fp64 PROPERTIES LABELS "nltrain;cli;mpi" TIMEOUT 60)
  # --memory-budget across 2 and 3 ranks: the bits of one unbudgeted process, a spill directory per
  # rank (gone after the run), the least budget refused by rank 0 alone.
  add_test(NAME nltrain_cli_mpi_budget COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/mpi_budget_test.sh $<TARGET_FILE:nltrain> ${MPIEXEC_EXECUTABLE})
  set_tests_properties(nltrain_cli_mpi_budget PROPERTIES LABELS "nltrain;cli;mpi" TIMEOUT 120)
endif()
# train --trace-out: the Chrome trace parsed (phases per step, a track per stream), the same
# metrics and checkpoint bytes without it, refused paths, a SIGINT-stopped run's whole trace.
add_test(NAME nltrain_cli_trace COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/trace_test.py $<TARGET_FILE:nltrain>)
set_tests_properties(nltrain_cli_trace PROPERTIES LABELS "nltrain;cli")
# train|gradcheck --device: cpu keeps main's bytes; cpu-launcher (libgpu's kernels) reproducible
# bit for bit, within a derived tolerance of cpu (DeltaRule, TitansLMM; K = 1, 2), resumes across
# devices, gradchecks and verifies; cuda without a device and bad values refused.
add_test(NAME nltrain_cli_device
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/device_test.py $<TARGET_FILE:nltrain> $<TARGET_FILE:bp>
                 ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/data)
set_tests_properties(nltrain_cli_device PROPERTIES LABELS "nltrain;bp;cli")
# A full disk (RLIMIT_FSIZE) during a budgeted step's spill: one line, the run kept, then resumed.
add_test(NAME nltrain_cli_spill_full
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/spill_full_test.sh $<TARGET_FILE:nltrain>)
set_tests_properties(nltrain_cli_spill_full PROPERTIES LABELS "nltrain;cli")
# The recorded-bits tests again with OpenBLAS's AVX2 core, as on a machine without AVX-512.
add_test(NAME nltrain_cli_foreign_core
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/nltrain/foreign_core_test.sh $<TARGET_FILE:nltrain> $<TARGET_FILE:atenia>
                 $<TARGET_FILE:bp> $<TARGET_FILE:verify_tests> $<TARGET_FILE:fuzz_smoke> "${SUITE_PYTHON_VENV}")
set_tests_properties(nltrain_cli_foreign_core PROPERTIES SKIP_RETURN_CODE 77 LABELS "nltrain;atenia;bp;cli")
