export declare const ENGINE_NODE_FLAGS: string[];
export declare const ENGINE_ENTRIES: string[];
