# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

.PHONY: demo test setup models build release clean fuzz fuzz-ci

setup:
	@bash tools/setup.sh

models: setup
	@python3 tools/fetch_models.py

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# The run fails on any skipped test or parameterised test without cases (tools/check_test_run.py),
# and tools/check_skip_check.sh proves that check fails on a corrupted reference file.
test: setup models
	$(SWIFT) build --build-tests
	python3 tools/check_test_run.py -- $(SWIFT) test --skip-build
	SWIFT=$(SWIFT) bash tools/check_skip_check.sh

# Fuzzing (tools/fuzz.sh; its own build in .build-fuzz): every target for FUZZ_SECONDS (default 60) each,
# keeping the corpus; fuzz-ci is a short pass (20 s each from the seeds), failing on any crash, leak,
# timeout or out-of-memory and saving the input under Tests/Fixtures/fuzz/ (not yet part of `make test`).
FUZZ_SECONDS ?= 60
fuzz: setup models
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tools/fuzz.sh run

fuzz-ci: setup models
	FUZZ_SECONDS=20 bash tools/fuzz.sh ci

demo: setup models release
	@bash tools/demo.sh

clean:
	rm -rf .build .build-fuzz demo-output
