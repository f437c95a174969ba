import Foundation

/// MediaPipe's logistic activation, in single precision: 1 / (1 + e^-x), as its detection, presence,
/// landmark and segmentation calculators compute it.
@inline(__always)
public func sigmoid(_ value: Float) -> Float { 1 / (1 + expf(-value)) }
