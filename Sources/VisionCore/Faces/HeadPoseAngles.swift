import Foundation

/// Yaw, pitch and roll in degrees from a row-major 4×4 facial transformation matrix (MediaPipe's
/// camera frame: x to the picture's right, y up, z towards the viewer; any uniform scale is
/// ignored). The rotation R is taken as Rz(roll) · Ry(yaw) · Rx(−pitch): pitch applied first, then
/// yaw, then roll, each about a camera axis. So:
/// - roll > 0: the face turned counter-clockwise as the picture is shown (about z);
/// - yaw > 0: the face turned towards the picture's right (the person's left), about y;
/// - pitch > 0: the face tilted up (chin raised), about x.
///
/// Turning the picture by α counter-clockwise adds α to roll; mirroring it left–right negates yaw and
/// roll and keeps pitch. Returns nil unless `matrix` has 16 finite entries whose rotation part is not
/// degenerate.
public func headPoseAngles(fromTransform matrix: [Float]) -> (yaw: Float, pitch: Float, roll: Float)? {
    guard matrix.count == 16, matrix.allSatisfy(\.isFinite) else { return nil }
    func r(_ row: Int, _ column: Int) -> Double { Double(matrix[row * 4 + column]) }
    let cosYaw = (r(2, 1) * r(2, 1) + r(2, 2) * r(2, 2)).squareRoot()
    guard cosYaw > 0 || abs(r(2, 0)) > 0 else { return nil }
    let degrees = 180 / Double.pi
    let yaw = atan2(-r(2, 0), cosYaw)
    let pitch = -atan2(r(2, 1), r(2, 2))
    // At yaw ±90° (gimbal lock) roll and pitch share one axis; roll is read from the other columns.
    let roll = cosYaw > 1e-9 * (abs(r(2, 0)) + cosYaw) ? atan2(r(1, 0), r(0, 0)) : atan2(-r(0, 1), r(1, 1))
    return (Float(yaw * degrees), Float(pitch * degrees), Float(roll * degrees))
}

/// The 3×3 rotation (rows) of a head pose in degrees, Rz(roll) · Ry(yaw) · Rx(−pitch), the inverse of
/// `headPoseAngles`: its columns are the face's x, y and z axes in the camera's frame.
public func headPoseRotation(yaw: Double, pitch: Double, roll: Double) -> [[Double]] {
    let (y, p, r) = (yaw * .pi / 180, -pitch * .pi / 180, roll * .pi / 180)
    let rz = [[cos(r), -sin(r), 0], [sin(r), cos(r), 0], [0, 0, 1]]
    let ry = [[cos(y), 0, sin(y)], [0, 1, 0], [-sin(y), 0, cos(y)]]
    let rx = [[1, 0, 0], [0, cos(p), -sin(p)], [0, sin(p), cos(p)]]
    func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }
    return product(product(rz, ry), rx)
}
