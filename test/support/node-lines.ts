export { NODE_LINES, registryNode, type RegistryNode } from "../../scripts/lib/registry-node.ts";
