// The Inference module; see ../shared/DESIGN.md for its place among the layers.
