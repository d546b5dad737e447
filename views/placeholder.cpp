// Replaced by the views library (graph scene, panes, models, Document).
namespace irlens::views { int placeholder() { return 0; } }
