# VisionTasks: `make demo` and `make test` set up what is missing, fetch the models and run.
SWIFT ?= swift

.PHONY: demo test setup models build release clean

setup:
	@bash tools/setup.sh

models: setup
	@python3 tools/fetch_models.py

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

test: setup models
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: setup models release
	@bash tools/demo.sh

clean:
	rm -rf .build demo-output
