#include "viewer/contact_forces.h"

namespace pliant::viewer {

bool contact_force(const Data& data, int c, Vector6d& force) {
  force.setZero();
  if (c < 0 || c >= static_cast<int>(data.contacts.size())) return false;
  const Contact& contact = data.contacts[c];
  const int adr = contact.efc_address;
  const ConstraintRows& efc = data.efc;
  if (adr < 0 || adr >= efc.count()) return false;
  const int dim = contact.dim;
  if (efc.type[adr] == ConstraintType::kContactPyramidal) {
    const int rows = 2 * (dim - 1);
    if (adr + rows > static_cast<int>(efc.force.size())) return false;
    for (int k = 0; k < rows; ++k) force[0] += efc.force[adr + k];
    for (int j = 0; j < dim - 1; ++j) {
      force[j + 1] = (efc.force[adr + 2 * j] - efc.force[adr + 2 * j + 1]) * contact.friction[j];
    }
    return true;
  }
  if (adr + dim > static_cast<int>(efc.force.size())) return false;
  for (int k = 0; k < dim; ++k) force[k] = efc.force[adr + k];
  return true;
}

double contact_violation(const Contact& contact) { return contact.dist - contact.includemargin; }

}  // namespace pliant::viewer
