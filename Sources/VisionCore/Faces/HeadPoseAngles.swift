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
